ífunction () {
  return `x`;
}