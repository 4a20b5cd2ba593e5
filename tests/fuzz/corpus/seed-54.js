Îfunction () {
  return typeof 1;
}