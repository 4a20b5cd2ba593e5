„function () {
  const c = 1;
  c = 2;
  return c;
}