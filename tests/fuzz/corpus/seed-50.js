:function (a) {
  return helper(a) + a[0];
}
