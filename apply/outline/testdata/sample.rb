module Shop
  # A cart.
  class Cart
    def initialize
      @items = []
    end

    def self.empty
      new
    end
  end
end
