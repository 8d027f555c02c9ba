import React, { useState } from "react";
import type { Item } from "./item";

interface Props {
  items: Item[];
  onAdd?: (item: Item) => void;
}

// Shows a cart.
export function CartView({ items, onAdd }: Props): JSX.Element {
  const [open, setOpen] = useState(false);
  return <ul className="cart">{items.map((i) => <li key={i.sku}>{i.sku}</li>)}</ul>;
}

export const Badge = ({ count }: { count: number }) => <span>{count}</span>;

export default class CartPage extends React.Component<Props> {
  state = { open: false };

  render() {
    return <CartView items={this.props.items} />;
  }
}

const theme = { color: "red" };
