%function rank(scores) {
  const mine = scores[this.thread.x];
  let r = 0;
  for (let i = 0; i < this.constants.n; i++) {
    const other = scores[i];
    if (other > mine || (other === mine && i < this.thread.x)) r++;
  }
  return r;
}
