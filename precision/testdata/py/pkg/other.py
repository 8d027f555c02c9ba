"""Another Shape, in another module."""


class Shape:
    def __init__(self, name: str) -> None:
        self.name = name


def label(s: Shape) -> str:
    e = "😀é"; x = s.name; return x
