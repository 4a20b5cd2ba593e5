\function f() { return f(); }
function () { return f(); }