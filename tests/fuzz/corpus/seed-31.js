{function () {
  const f = (v) => v * 2;
  return f(1);
}