package com.example.shop

import java.util.UUID
import kotlin.math.max as maximum
import kotlinx.coroutines.*

const val MAX_ITEMS = 100
val defaultOwner = "nobody"
private var counter = 0

/**
 * A cart of items.
 */
@Serializable
data class Cart(val owner: String, private var note: String = "") : Base(), Store {
    val items = mutableListOf<Item>()
    private val secret = 1
    internal var level = 0

    fun add(item: Item): Boolean = items.add(item)

    private fun clear() {}

    protected open fun size(): Int = items.size

    companion object {
        fun empty() = Cart("")
    }

    class Line(val price: Long)
}

interface Store {
    fun find(id: String): Cart?
    val name: String
}

enum class Color { RED, GREEN }

object Registry {
    fun register(c: Cart) {}
}

typealias Carts = List<Cart>

fun newCart(owner: String): Cart {
    fun inner() {}
    return Cart(owner)
}

internal fun hidden() {}

fun String.shout(): String = uppercase()
