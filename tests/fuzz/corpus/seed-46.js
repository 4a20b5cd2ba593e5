¦function (a) {
  return a[0] + a;
}