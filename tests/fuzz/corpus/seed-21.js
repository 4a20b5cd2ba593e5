	function square(v) { return v * v; }
function (a) { return twice(addOne(square(a[this.thread.x]))); }