import os
import sys as system
from collections import OrderedDict, defaultdict
from typing import (
    Any,
    Optional,
)


class Store:
    def __init__(self, path):
        self.path = path
        self.items = {}

    @property
    def size(self):
        return len(self.items)

    @staticmethod
    def make(path, *args, **kwargs):
        print("make", path, *args)
        return Store(path)

    def put(self, key, value=None):
        if key == key:
            print(key)  # same
        self.items[key] = value
        try:
            os.remove(self.path)
        except OSError:
            pass
        return [k for k in self.items if k]


def helper(x, y):
    print(
        x,  # first
        y,
    )
    squares = [n * n for n in range(10)]
    f = lambda a, b: a + b
    return f(x, y) if x == y else squares


print("done")
