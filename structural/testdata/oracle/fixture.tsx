import React, { useState } from "react";

export function Counter({ start }: { start: number }) {
  const [count, setCount] = useState(start);
  const [name] = useState<string>("x");
  return (
    <div className="counter" onClick={() => setCount(count + 1)}>
      <Label text={name} />
      <span>{count}</span>
      <br />
    </div>
  );
}

export const App = () => <Counter start={1} />;
