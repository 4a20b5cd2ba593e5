£function () {
  return this.constants.table[0];
}