package demo.lambdas

import java.io.File

// Shapes on which ast-grep's bundled Kotlin grammar and
// tree-sitter-grammars/tree-sitter-kotlin read differently: calls with a
// trailing lambda, prefix operators before a call, type checks, class
// literals, delegation and annotated assignments.
interface Store : Map<String, Int>

class Cache(private val backing: Store) : Map<String, Int> by backing {
    private val seen = mutableSetOf<String>()
    private var loader: Class<*>? = null

    fun warm(keys: List<String>) {
        synchronized(seen) {
            keys.filter { !seen.contains(it) }.forEach { seen.add(it) }
        }
        repeat(3) { attempt ->
            if (!backing.containsKey("k$attempt")) {
                println("miss $attempt")
            }
        }
    }

    fun pick(name: String): Int = backing.getOrElse(name) { 0 }

    fun kind(value: Any?): String = when {
        value is String -> "text"
        value is Int && value > 0 -> "count"
        value == null -> "none"
        else -> value::class.java.simpleName
    }

    fun grid(rows: Int, cols: Int) = Array(rows) { r ->
        IntArray(cols) { c -> r * cols + c }
    }

    fun open(path: String): Boolean {
        val file = File(path)
        @Suppress("UNCHECKED_CAST")
        loader = Class.forName(path) as Class<*>
        return !file.exists() || file.length() == 0L
    }

    fun size(): Int = seen.size ?: 0
}

fun useCache(cache: Cache) {
    with(cache) {
        warm(listOf("a", "b"))
        println(pick("a"))
    }
    cache.grid(2, 3).forEach { row -> println(row.joinToString(",")) }
    require(cache.size() >= 0) { "negative size" }
}
