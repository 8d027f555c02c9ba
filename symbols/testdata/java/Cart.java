package com.example.shop;

import java.util.ArrayList;
import java.util.List;
import static java.util.Objects.requireNonNull;
import java.util.concurrent.*;

/**
 * A cart of items.
 */
@Entity
public class Cart<T extends Item> implements Iterable<T> {
    public static final int MAX_ITEMS = 100;
    private final List<T> items = new ArrayList<>();
    protected String owner;
    int count, total;

    public Cart(String owner) {
        this.owner = requireNonNull(owner);
    }

    /** Adds an item. */
    @Override
    public boolean add(T item) {
        return items.add(item);
    }

    private void clear() {}

    public static class Line {
        public long price() { return 0; }
    }

    enum State { OPEN, CLOSED }
}

interface Store {
    int LIMIT = 10;
    Cart<?> find(String id);
    default void close() {}
}

public enum Color {
    RED, GREEN;
    public String lower() { return name().toLowerCase(); }
}

record Pair(String a, String b) {
    public String joined() { return a + b; }
}

@interface Marker {
    String value() default "";
}
