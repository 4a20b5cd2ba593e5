¹function (values, t) {
  let hits = 0;
  for (let i = 0; i < this.constants.chunk; i++) {
    if (values[i * this.constants.threads + this.thread.x] > t) hits++;
  }
  return hits;
}
