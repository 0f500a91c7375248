namespace geo {

class Circle {
 public:
  double area() const { return 3.14 * r * r; }
  void grow();
 private:
  double r;
};

void Circle::grow() { r *= 2; }

}  // namespace geo

template <typename T>
T max_of(T a, T b) { return a > b ? a : b; }
