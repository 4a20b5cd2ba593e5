function () {
  return Math.hypot(1, 2);
}