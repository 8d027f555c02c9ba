require 'json'
require_relative 'helper'

module Shop
  class Cart
    attr_reader :items

    def initialize(owner)
      @owner = owner
      @items = []
    end

    def add(item, qty = 1)
      raise ArgumentError, "bad qty" if qty <= 0
      @items << { item: item, qty: qty }
      puts "added #{item}"
      self
    end

    def total
      @items.map { |i| i[:qty] * price(i[:item]) }.sum
    end

    def each_item(&block)
      @items.each do |entry|
        yield entry
      end
    end

    private

    def price(item)
      item == item ? 1 : 2
    end
  end
end

cart = Shop::Cart.new("ann")
cart.add("pen", 2).add("ink")
puts cart.total
puts JSON.generate(cart.items)
