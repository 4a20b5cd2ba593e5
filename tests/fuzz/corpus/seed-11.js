—function (samples, flags, offsets) {
  let v = 0;
  for (let i = 0; i < this.constants.n; i++) {
    if (flags[i] === 1 && offsets[i] === this.thread.x) v = samples[i];
  }
  return v;
}
