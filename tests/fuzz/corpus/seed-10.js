rfunction (flags) {
  let sum = 0;
  for (let i = 0; i < this.constants.n; i++) {
    if (i < this.thread.x) sum += flags[i];
  }
  return sum;
}
