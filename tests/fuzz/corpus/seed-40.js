Èfunction () {
  return new Array(3);
}