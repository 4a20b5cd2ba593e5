 function () {
  const f = v => v * 2;
  return 1;
}