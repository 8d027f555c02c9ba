<?php

namespace App\Service;

use App\Model\User;
use Psr\Log\LoggerInterface;

class UserService
{
    private array $cache = [];

    public function __construct(private LoggerInterface $logger)
    {
    }

    public function find(int $id): ?User
    {
        if (isset($this->cache[$id])) {
            return $this->cache[$id];
        }
        $user = User::load($id);
        $this->logger->info("loaded user", ['id' => $id]);
        $this->cache[$id] = $user;
        echo "found " . $id;
        return $user;
    }

    public function names(array $users): array
    {
        return array_map(fn($u) => $u->name, $users);
    }
}

function helper($a, $b)
{
    if ($a == $a) {
        echo $b;
    }
    return strlen($b);
}
