const fs = require("fs");
import def, { a, b } from "./mod";

function greet(name, ...rest) {
  console.log("hello", name, ...rest);
  return name === name ? name : rest[0];
}

class Emitter {
  on(evt, fn) {
    this.handlers[evt] = fn;
  }
}

const e = new Emitter();
e.on("x", () => console.log(/* c */ 1));
e.on("y", function named() {});
if (def) {
  greet(a, b);
}
module.exports = { greet, e: new Emitter() };
foo(1, /* c */ 2);
foo(/* c */ bar());
foo(/* c */ a);
foo(a /* c */);
foo(a, /* c */ b);
foo(/* c */);
