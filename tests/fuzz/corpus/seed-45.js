function () {
  return this.thread.w;
}