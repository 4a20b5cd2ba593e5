Vfunction () {
  const o = {x: 1};
  return 1;
}