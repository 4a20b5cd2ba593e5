”function pick(ranks) {
  let found = -1;
  for (let i = 0; i < this.constants.n; i++) if (ranks[i] === this.thread.x) found = i;
  return found;
}
