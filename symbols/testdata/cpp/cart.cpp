#include <vector>
#include "cart.hpp"

using namespace std;
using std::string;

namespace shop {

// A cart.
template <typename T>
class Cart : public Base {
public:
    Cart() = default;
    explicit Cart(string owner);
    void add(const T& item);
    int size() const { return items_.size(); }
    static constexpr int kMax = 100;

private:
    std::vector<T> items_;
    void clear();
};

struct Point {
    int x, y;
    double norm() const;
};

enum class Color { Red, Green };

using Price = unsigned long;

template <typename T>
void Cart<T>::add(const T& item) { items_.push_back(item); }

double Point::norm() const { return 0; }

int total(const std::vector<int>& xs) { return 0; }

namespace {
int hidden() { return 1; }
}

namespace detail::inner {
constexpr int kLimit = 3;
}

}  // namespace shop

extern "C" {
int c_api(void) { return 0; }
}
