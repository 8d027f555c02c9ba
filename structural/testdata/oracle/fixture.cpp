#include <iostream>
#include <memory>
#include <vector>

namespace demo {

class Widget {
 public:
  explicit Widget(int size) : size_(size) {}
  int size() const { return size_; }
  void resize(int n) { size_ = n; }

 private:
  int size_;
};

template <typename T>
T twice(T value) {
  return value + value;
}

int run(std::vector<int>& items) {
  auto w = std::make_unique<Widget>(3);
  w->resize(4);
  std::cout << w->size() << std::endl;
  for (auto& item : items) {
    item = twice(item);
  }
  if (items.empty()) {
    return -1;
  }
  int* raw = new int[4];
  delete[] raw;
  std::cout << "done" << std::endl;
  return items.size() == items.size() ? 0 : 1;
}

}  // namespace demo
