Yfunction (a) {
  a[0] = 3;
  return a[0];
}