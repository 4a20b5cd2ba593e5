Ëfunction (a) {
  return a[1][2] + a[0];
}