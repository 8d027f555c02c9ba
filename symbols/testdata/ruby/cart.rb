require 'json'
require_relative 'item'
load "config.rb"

# Shopping carts.
module Shop
  MAX_ITEMS = 100

  # A cart of items.
  class Cart < Base
    attr_reader :items, :owner
    attr_accessor :note

    def initialize(owner)
      @owner = owner
      @items = []
    end

    # Adds an item.
    def add(item)
      @items << item
    end

    def self.create
      new(nil)
    end

    def ==(other)
      items == other.items
    end

    private

    def secret; end

    protected def guarded; end

    public

    def visible; end

    class << self
      def build; end
    end
  end

  class Shop::Special::Cart2; end
end

def helper(x)
  x
end

VERSION = "1.0"
