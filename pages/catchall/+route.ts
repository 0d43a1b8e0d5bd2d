export default '/*'
