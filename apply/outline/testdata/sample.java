package p;

/** Doc. */
@Deprecated
public class Greeter {
    private int count, total;

    public Greeter() {}

    // Overloads.
    public void greet() {}

    public void greet(String name) {}

    enum Mood { HAPPY }
}
