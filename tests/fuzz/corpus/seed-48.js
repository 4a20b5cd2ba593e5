ðfunction () {
  return 1 +;
}