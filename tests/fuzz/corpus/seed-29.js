1function (a) {
  for (let k in a) {}
  return 1;
}