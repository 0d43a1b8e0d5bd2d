export function AgentBenefits() {
  return (
    <div className="box">
      <h2 className="title is-5">Agent Benefits</h2>
      <ul>
        <li className="mb-1">
          <strong>Special pricing</strong>: wholesale agent prices on every network.
        </li>
        <li className="mb-1">
          <strong>Bulk orders</strong>: place as many orders as your customers need.
        </li>
        <li className="mb-1">
          <strong>Order tracking</strong>: follow every order and its delivery in My Orders.
        </li>
        <li>
          <strong>Quick access</strong>: order from the portal or by USSD with your agent PIN.
        </li>
      </ul>
    </div>
  )
}
