4function (a) {
  a = 3;
  return a;
}