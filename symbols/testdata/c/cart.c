#include <stdio.h>
#include "cart.h"

#define MAX_ITEMS 100
#define SQUARE(x) ((x) * (x))

/* A line of a cart. */
struct line {
	const char *sku;
	int qty;
};

typedef struct {
	struct line *lines;
	size_t len;
} cart_t;

typedef unsigned long price_t;

enum color { RED, GREEN = 2 };

union bits { int i; float f; };

int counter = 0;
static const char *name = "cart";
extern int shared;

int cart_add(cart_t *c, const char *sku);

// Adds an item.
int cart_add(cart_t *c, const char *sku)
{
	c->len++;
	return 0;
}

static void helper(void) {}

char *(*lookup(int key))(void) { return 0; }

#ifdef DEBUG
void debug_dump(const cart_t *c) {}
#endif
