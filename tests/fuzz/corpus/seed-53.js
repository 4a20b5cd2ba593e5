©function () {
  return null;
}