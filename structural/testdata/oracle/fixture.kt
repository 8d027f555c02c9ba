package demo

import kotlin.math.max
import java.io.File

data class Point(val x: Int, val y: Int)

@Suppress("unused")
class Board(private val size: Int) {
    private val cells = mutableListOf<Point>()

    fun add(p: Point): Boolean {
        if (p.x >= size || p.y >= size) {
            return false
        }
        cells.add(p)
        println("added $p")
        return true
    }

    fun widest(): Int = cells.maxOfOrNull { max(it.x, it.y) } ?: 0

    fun load(path: String) {
        File(path).readLines().forEach { line ->
            val parts = line.split(",")
            add(Point(parts[0].toInt(), parts[1].toInt()))
        }
        println("loaded")
    }
}

fun main() {
    val b = Board(8)
    b.add(Point(1, 2))
    println(b.widest() == b.widest())
}
