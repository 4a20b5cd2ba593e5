function () {
  return outer * 2;
}