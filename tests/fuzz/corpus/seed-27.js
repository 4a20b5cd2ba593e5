çfunction (a) {
  return a.length;
}