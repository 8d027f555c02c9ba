<?php

declare(strict_types=1);

namespace App\Shop;

use App\Models\Item;
use App\Support\{Money, Tax as Vat};
use function App\Helpers\format_price;

require_once __DIR__ . '/bootstrap.php';
include 'helpers.php';

const MAX_ITEMS = 100;
define('CART_VERSION', '1.0');

/**
 * A cart of items.
 */
#[Entity]
final class Cart extends Base implements Countable
{
    use Discounts;

    public const LIMIT = 10;
    private array $items = [];
    protected ?string $owner = null;
    public static int $count = 0;
    var $legacy;

    public function __construct(string $owner)
    {
        $this->owner = $owner;
    }

    /** Adds an item. */
    public function add(Item $item): void
    {
        $this->items[] = $item;
    }

    private function clear(): void {}

    function count(): int { return count($this->items); }

    public static function create(): static { return new static(''); }
}

interface Store
{
    public function find(string $id): ?Cart;
}

trait Discounts
{
    protected function discount(): int { return 0; }
}

enum Status: string
{
    case Open = 'open';
    case Closed = 'closed';

    public function label(): string { return $this->value; }
}

function new_cart(string $owner): Cart
{
    return new Cart($owner);
}
