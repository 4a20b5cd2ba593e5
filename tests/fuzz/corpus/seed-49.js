function () {
  return this.constants.missing;
}