export { guard } from '../../ussd-simulator/+guard.ts'
