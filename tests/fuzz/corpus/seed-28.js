function (a) {
  let s = 0;
  for (const v of a) s += v;
  return s;
}