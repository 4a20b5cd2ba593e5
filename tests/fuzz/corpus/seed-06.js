Şfunction (data, stage, stride) {
  const i = this.thread.x;
  const strideBit = Math.floor(i / stride) % 2;
  const dirBit = Math.floor(i / stage) % 2;
  const partner = strideBit === 0 ? i + stride : i - stride;
  const a = data[i];
  const b = data[partner];
  if (strideBit === dirBit) {
    return Math.min(a, b);
  }
  return Math.max(a, b);
}
