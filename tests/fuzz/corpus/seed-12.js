¼function (samples, flags, offsets) {
  let lo = 0;
  let hi = this.constants.n;
  for (let step = 0; step < this.constants.steps; step++) {
    if (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      if (offsets[mid] + flags[mid] > this.thread.x) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
  }
  return samples[Math.min(lo, this.constants.n - 1)];
}
