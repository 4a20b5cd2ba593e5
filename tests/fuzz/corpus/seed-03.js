ofunction rank2d(b) {
  const mine = b[this.thread.y][this.thread.x];
  const me = this.thread.y * this.constants.size + this.thread.x;
  let r = 0;
  for (let y = 0; y < this.constants.size; y++) {
    for (let x = 0; x < this.constants.size; x++) {
      const o = b[y][x];
      if (o > mine || (o === mine && y * this.constants.size + x < me)) r++;
    }
  }
  return r;
}
