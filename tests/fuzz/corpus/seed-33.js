Åfunction () {
  const s = "text";
  return 1;
}