7function () {
  return nothing(1);
}