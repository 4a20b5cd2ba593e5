function (d) {
  const i = this.thread.x;
  const p = i % 2 === 0 ? i + 1 : i - 1;
  return i % 2 === 0 ? Math.min(d[i], d[p]) : Math.max(d[i], d[p]);
}
