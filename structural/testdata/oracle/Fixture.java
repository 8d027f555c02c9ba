package fixture;

import java.util.List;
import java.util.ArrayList;
import static java.util.Objects.requireNonNull;

public class Fixture {
    private final List<String> items = new ArrayList<>();

    @Override
    public String toString() {
        return "Fixture" + items.size();
    }

    @Deprecated
    public void add(String item) {
        if (item == null) {
            throw new IllegalArgumentException("null item");
        }
        if (item.equals(item)) {
            System.out.println("same " + item);
        }
        items.add(requireNonNull(item));
        System.out.println(item, items.size());
    }

    public int count(List<String> xs) {
        int n = 0;
        for (String x : xs) {
            if (x.equals("a")) {
                n++;
            }
        }
        for (int i = 0; i < xs.size(); i++) {
            System.out.println(xs.get(i));
        }
        return n;
    }

    public static void main(String[] args) {
        Fixture f = new Fixture();
        f.add("x");
        System.out.println(f.count(new ArrayList<>()));
    }
}
