~function () {
  const f = function (v) { return v; };
  return f(1);
}